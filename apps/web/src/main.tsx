import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
// antd's component styles, prebuilt (the theme runs in zero-runtime mode: see lib/theme.ts); before ours.
// Only those of the auth pages' components (`?first`, vite.config.ts): the public site's, the dashboard's and
// the Oops page's layouts import the whole sheet, loaded with their chunks.
import 'antd/dist/antd.css?first';
import './app/global.css';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
