import { createSlice, type PayloadAction } from '@reduxjs/toolkit';

export type ThemeMode = 'light' | 'dark';
const themeSlice = createSlice({
  name: 'theme',
  initialState: { mode: 'light' as ThemeMode },
  reducers: {
    themeToggled(state) {
      state.mode = state.mode === 'light' ? 'dark' : 'light';
    },
  },
});
export const { themeToggled } = themeSlice.actions;
export const themeReducer = themeSlice.reducer;

/** Page info (docs/web.md "State and persistence"): the page title and the global alert banner. */
export interface PageInfoState {
  pagetitle: string;
  alarmContent: string;
  isShowAlert: boolean;
  /** The alert 'View Event' opens (not in the product's fields; needed to open it). */
  alertId?: number;
}
const initialPageInfo: PageInfoState = { pagetitle: '', alarmContent: '', isShowAlert: false };
const pageInfoSlice = createSlice({
  name: 'pageInfo',
  initialState: initialPageInfo,
  reducers: {
    pageTitleSet(state, action: PayloadAction<string>) {
      state.pagetitle = action.payload;
    },
    alertShown(state, action: PayloadAction<{ alarmContent: string; alertId?: number }>) {
      state.alarmContent = action.payload.alarmContent;
      state.alertId = action.payload.alertId;
      state.isShowAlert = true;
    },
    alertHidden(state) {
      state.isShowAlert = false;
    },
  },
});
export const { pageTitleSet, alertShown, alertHidden } = pageInfoSlice.actions;
export const pageInfoReducer = pageInfoSlice.reducer;
