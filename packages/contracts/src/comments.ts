import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { dataOf, idParams, isoDateTime, listOf, okBody, pathId } from './envelope.ts';
import { idFilter, listQuery, qFilter } from './list-query.ts';

export const COMMENT_MAX_CHARS = 20_000;

export const COMMENT_MSG = {
  empty: 'Comment cannot be empty.',
  tooLong: `Comment is too long (at most ${COMMENT_MAX_CHARS.toLocaleString('en-US')} characters).`,
  notAuthor: 'Only the author can change this comment.',
  notAuthorOrAdmin: 'Only the author or an Admin can delete this comment.',
  otherUser: 'You can only comment as yourself.',
} as const;

export const commentSchema = z.object({
  id: z.number().int(),
  userId: z.number().int(),
  userName: z.string(),
  /** Sanitized HTML (server allow-list); render through DOMPurify. */
  content: z.string(),
  caseId: z.number().int(),
  createdAt: isoDateTime,
  updatedAt: isoDateTime,
});
export type Comment = z.infer<typeof commentSchema>;

const content = z.string({ error: COMMENT_MSG.empty }).max(COMMENT_MAX_CHARS, COMMENT_MSG.tooLong);
const positiveId = z.coerce.number().int().positive().max(2147483647);

/** userId, userName and caseId are accepted as the web client sends them; the server uses the token and the path. */
export const createCommentBody = z.strictObject({
  content,
  userId: positiveId.optional(),
  userName: z.string().max(200).optional(),
  caseId: positiveId.optional(),
});
export const updateCommentBody = z.strictObject({ content });

export const caseCommentsParams = z.strictObject({ caseId: pathId });
export const userCaseCommentsParams = z.strictObject({ userId: pathId, caseId: pathId });

export const commentsListQuery = listQuery({
  sort: ['createdAt', 'updatedAt', 'id'],
  filter: { userId: idFilter, q: qFilter },
});

export const commentEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v0/api/case-stats/:caseId/comments',
    tag: 'comments',
    summary: "A case's comments, newest first",
    params: caseCommentsParams,
    query: commentsListQuery,
    response: listOf(commentSchema),
  }),
  create: endpoint({
    method: 'POST',
    path: '/v0/api/users/:userId/case-stats/:caseId/comments',
    tag: 'comments',
    summary: 'Comment on a case as the signed-in user',
    params: userCaseCommentsParams,
    body: createCommentBody,
    response: dataOf(commentSchema),
    status: 201,
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v0/api/comments/:id',
    tag: 'comments',
    summary: 'Edit one of your comments',
    params: idParams,
    body: updateCommentBody,
    response: dataOf(commentSchema),
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/v0/api/comments/:id',
    tag: 'comments',
    summary: 'Delete a comment (its author, or an Admin)',
    params: idParams,
    response: okBody,
  }),
};
