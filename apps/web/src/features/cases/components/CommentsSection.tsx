import { Card, Skeleton } from 'antd';
import { lazy, Suspense, useState } from 'react';
import type { Comment } from '@vigil/contracts';
import { useAuth } from '../../../lib/state/hooks.ts';
import { notify } from '../../../lib/notify.ts';
import { useCommentsQuery, useCreateCommentMutation, useDeleteCommentMutation, useUpdateCommentMutation } from '../api.ts';
import { CommentList } from './CommentList.tsx';
import { useCan } from '../../../lib/session/permissions.ts';

const CommentEditor = lazy(() => import('./CommentEditor.tsx'));

/** A case's comments: count, the editor (Save / Change, Cancel) and the list. */
export function CommentsSection({ caseId }: { caseId: number }) {
  const auth = useAuth();
  const { data, isLoading, error } = useCommentsQuery({ caseId, list: { range: [0, 200], sort: ['createdAt', 'DESC'] } });
  const [create, creating] = useCreateCommentMutation();
  const [update, updating] = useUpdateCommentMutation();
  const [remove] = useDeleteCommentMutation();
  const [editing, setEditing] = useState<Comment | null>(null);
  const [resetKey, setResetKey] = useState(0);
  const count = data?.data.count ?? 0;
  const canWrite = useCan('comments:write');

  const reset = () => {
    setEditing(null);
    setResetKey((k) => k + 1);
  };
  const save = async (content: string) => {
    const result = editing
      ? await update({ id: editing.id, content })
      : await create({ userId: auth.userId, caseId, body: { content, userId: auth.userId, userName: auth.userName, caseId } });
    if ('data' in result && result.data) {
      notify.success(editing ? 'Comment changed.' : 'Comment saved.');
      reset();
    }
  };
  const del = async (c: Comment) => {
    const result = await remove(c.id);
    if ('data' in result) {
      notify.success('Comment deleted.');
      if (editing?.id === c.id) reset();
    }
  };

  return (
    <Card title={`Comments (${count})`}>
      {canWrite && (
        <Suspense fallback={<Skeleton.Input active block style={{ height: 96 }} />}>
          <CommentEditor
            key={resetKey}
            initial={editing?.content ?? ''}
            editing={Boolean(editing)}
            saving={creating.isLoading || updating.isLoading}
            onSave={save}
            onCancel={reset}
          />
        </Suspense>
      )}
      <div style={{ marginTop: canWrite ? 16 : 0 }}>
        <CommentList
          comments={data?.data.list ?? []}
          isLoading={isLoading}
          error={error}
          userId={auth.userId}
          isAdmin={auth.roles.includes('Admin')}
          canWrite={canWrite}
          onEdit={setEditing}
          onDelete={del}
        />
      </div>
    </Card>
  );
}
