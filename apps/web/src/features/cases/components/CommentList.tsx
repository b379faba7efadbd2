import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Alert, Avatar, Button, Flex, List, Popconfirm, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import type { Comment } from '@vigil/contracts';
import { BRAND } from '../../../lib/theme.ts';
import { formatDateTime } from '../../../lib/dates.ts';
import { messageOf } from '../../../lib/errors.ts';
import { initialsOf, sanitizeComment } from '../commentText.ts';
import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { SerializedError } from '@reduxjs/toolkit';

/** Comment content: sanitized markup clamped to 3 lines with a more/less toggle. */
function CommentBody({ html }: { html: string }) {
  const [expanded, setExpanded] = useState(false);
  const clean = sanitizeComment(html);
  const long = clean.length > 240 || (clean.match(/<(p|li|br)\b/gi)?.length ?? 0) > 3;
  return (
    <div>
      <div
        className="vigil-comment-body"
        style={expanded ? undefined : { display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' }}
        dangerouslySetInnerHTML={{ __html: clean }}
      />
      {long && (
        <Button type="link" size="small" style={{ padding: 0 }} onClick={() => setExpanded((e) => !e)}>
          {expanded ? 'less' : 'more'}
        </Button>
      )}
    </div>
  );
}

interface Props {
  comments: Comment[];
  isLoading: boolean;
  error?: FetchBaseQueryError | SerializedError;
  userId: number;
  isAdmin: boolean;
  /** May write comments at all (docs/web.md "Roles"); the superAdmin reads only. */
  canWrite?: boolean;
  onEdit: (c: Comment) => void;
  onDelete: (c: Comment) => void;
}

/** Comment list (docs/web-pages.md "Pages"): initials avatar, name, content, updated time; edit for the author, delete for the author or an Admin. */
export function CommentList({ comments, isLoading, error, userId, isAdmin, canWrite = true, onEdit, onDelete }: Props) {
  if (isLoading) return <Skeleton active avatar />;
  if (error) return <Alert type="error" showIcon title="Could not load the comments" description={messageOf(error)} />;
  return (
    <List
      itemLayout="horizontal"
      dataSource={comments}
      locale={{ emptyText: canWrite ? 'No comments yet. Write the first one above.' : 'No comments yet.' }}
      renderItem={(c) => {
        const mine = c.userId === userId && canWrite;
        // One layout for every comment (the author's own too): avatar, then a column whose first line
        // holds name, time and the actions, so the text and its "more" link get the same width.
        return (
          <List.Item>
            <Flex gap={12} align="flex-start" style={{ width: '100%' }} data-testid="comment">
              <Avatar style={{ background: BRAND, flex: 'none' }}>{initialsOf(c.userName)}</Avatar>
              <div style={{ flex: 1, minWidth: 0 }}>
                <Flex gap={8} align="center" style={{ minHeight: 32 }}>
                  <Typography.Text strong ellipsis style={{ minWidth: 0 }}>
                    {c.userName}
                  </Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
                    {formatDateTime(c.updatedAt)}
                  </Typography.Text>
                  <span style={{ marginInlineStart: 'auto', whiteSpace: 'nowrap' }}>
                    {mine && (
                      <Button type="text" size="small" icon={<EditOutlined />} aria-label="Edit comment" onClick={() => onEdit(c)} />
                    )}
                    {(mine || (isAdmin && canWrite)) && (
                      <Popconfirm
                        title="Are you sure you want to delete this comment? This action cannot be undone."
                        okText="Yes, Delete"
                        cancelText="No, Cancel"
                        okButtonProps={{ danger: true }}
                        onConfirm={() => onDelete(c)}
                      >
                        <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label="Delete comment" />
                      </Popconfirm>
                    )}
                  </span>
                </Flex>
                <CommentBody html={c.content} />
              </div>
            </Flex>
          </List.Item>
        );
      }}
    />
  );
}
