import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
// antd's component styles, prebuilt (the theme runs in zero-runtime mode: see lib/theme.ts); before ours.
import 'antd/dist/antd.css';
import './app/global.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
