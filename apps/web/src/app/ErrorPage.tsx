import { Button, Result } from 'antd';
import { useEffect } from 'react';
import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router';
import { PRODUCT_NAME } from '@vigil/contracts';
import { OOPS } from './oops.ts';
// antd's whole stylesheet: the entry loads only the auth pages' part (main.tsx). The rules repeated
// from that part come again in this sheet's order, so the cascade is the whole sheet's.
import 'antd/dist/antd.css';

export { OOPS };

function errorText(error: unknown): string {
  if (isRouteErrorResponse(error)) return [error.status, error.statusText].filter(Boolean).join(' ') || String(error.data);
  if (error instanceof Error) return error.message;
  return typeof error === 'string' ? error : 'Unknown error';
}

function Oops({ text }: { text: string }) {
  useEffect(() => {
    document.title = `Error · ${PRODUCT_NAME}`;
  }, []);
  return (
    <main id="error-page" style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: 24 }}>
      <Result
        status="warning"
        title={OOPS}
        subTitle={<i>{text}</i>}
        extra={
          <Button type="primary" href="/">
            Back to home
          </Button>
        }
      />
    </main>
  );
}

/** Error element of the router: any route error (docs/web.md "Routes"). */
export function ErrorPage() {
  return <Oops text={errorText(useRouteError())} />;
}

/** Unknown paths show the same page with a 404 text. */
export function NotFound() {
  const { pathname } = useLocation();
  return <Oops text={`404 Not Found: ${pathname}`} />;
}
