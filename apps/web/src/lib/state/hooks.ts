import { useDispatch, useSelector } from 'react-redux';
import type { AppDispatch, RootState } from './rootReducer.ts';

export const useAppDispatch = useDispatch.withTypes<AppDispatch>();
export const useAppSelector = useSelector.withTypes<RootState>();
export const useAuth = () => useAppSelector((s) => s.auth);
