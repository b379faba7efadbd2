import { Alert, Button, Empty, Skeleton } from 'antd';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';
import type { ReactNode } from 'react';
import { messageOf } from '../lib/errors.ts';

/** Loading skeleton shaped like a table. */
export function TableSkeleton({ rows = 5 }: { rows?: number }) {
  return <Skeleton active title={false} paragraph={{ rows, width: '100%' }} />;
}

/** Empty state: a sentence that says what to do next, and an optional action. */
export function EmptyState({ text, action }: { text: string; action?: ReactNode }) {
  return (
    <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={text}>
      {action}
    </Empty>
  );
}

/** Error state: the message and a retry button. */
export function ErrorState({ error, onRetry }: { error: FetchBaseQueryError | SerializedError | undefined; onRetry: () => void }) {
  const text = error && 'status' in error ? messageOf(error) : error?.message || 'An unexpected error occurred.';
  return (
    <Alert
      type="error"
      showIcon
      title="Could not load the data"
      description={text}
      action={
        <Button size="small" onClick={onRetry}>
          Retry
        </Button>
      }
    />
  );
}

/**
 * Wraps a table: skeleton on first load, error with retry, otherwise the table
 * (give the table `locale={{ emptyText: <EmptyState .../> }}` for its empty state).
 */
export function TableState({
  isLoading,
  error,
  onRetry,
  children,
}: {
  isLoading: boolean;
  error?: FetchBaseQueryError | SerializedError;
  onRetry: () => void;
  children: ReactNode;
}) {
  if (isLoading) return <TableSkeleton />;
  if (error) return <ErrorState error={error} onRetry={onRetry} />;
  return <>{children}</>;
}
