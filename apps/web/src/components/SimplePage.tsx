import { Card } from 'antd';
import type { ReactNode } from 'react';
import { PageHeader } from './PageHeader.tsx';
import { EmptyState } from './TableStates.tsx';

/** A page with a header and one card holding an empty state (pages that have no data of their own yet). */
export function SimplePage({ title, text, action }: { title: string; text: string; action?: ReactNode }) {
  return (
    <>
      <PageHeader title={title} />
      <Card>
        <EmptyState text={text} action={action} />
      </Card>
    </>
  );
}
