import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { PRODUCT_NAME } from '@vigil/contracts';

function Placeholder() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: 48 }}>
      <h1>{PRODUCT_NAME}</h1>
      <p>The operations console for security-device service companies.</p>
      <a href="/auth/signin">TO LOG IN</a>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Placeholder />
  </StrictMode>,
);
