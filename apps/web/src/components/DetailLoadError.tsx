import type { SerializedError } from '@reduxjs/toolkit';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import { Result } from 'antd';
import { Link } from 'react-router';
import { PageHeader } from './PageHeader.tsx';
import { ErrorState } from './TableStates.tsx';

/**
 * What a detail page shows when its record did not load: "not found" with a way
 * back to the list for a 404 (another tenant's id answers 404 too), otherwise the
 * error with a retry.
 */
export function DetailLoadError(props: {
  title: string;
  error: FetchBaseQueryError | SerializedError;
  onRetry: () => void;
  /** e.g. 'Case not found' */
  notFoundTitle: string;
  back: { to: string; label: string };
}) {
  const notFound = 'status' in props.error && props.error.status === 404;
  return (
    <>
      <PageHeader title={props.title} />
      {notFound ? (
        <Result status="404" title={props.notFoundTitle} extra={<Link to={props.back.to}>{props.back.label}</Link>} />
      ) : (
        <ErrorState error={props.error} onRetry={props.onRetry} />
      )}
    </>
  );
}
