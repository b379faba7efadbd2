import { COMMENT_MSG, type Comment } from '@vigil/contracts';
import type { Tx } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import { badRequest, forbidden, notFound } from '../../http/errors.ts';
import type { Principal } from '../../http/permissions.ts';
import { findCase } from '../cases/index.ts';
import { isBlankMarkup, sanitizeComment } from './comment-html.ts';
import { deleteComment, findComment, insertComment, updateCommentContent } from './comments.repository.ts';

/** What the routes serve as the repository answers it. */
export { listComments } from './comments.repository.ts';

/** Sanitizes with the allow-list; what shows nothing once sanitized is refused. */
export function cleanContent(raw: string): string {
  const content = sanitizeComment(raw);
  if (isBlankMarkup(content)) throw badRequest(COMMENT_MSG.empty);
  return content;
}

/** The case must be visible to the caller (its tenant), else 404. */
export async function requireCase(tx: Tx, scope: Scope, caseId: number): Promise<void> {
  if (!(await findCase(tx, scope, caseId))) throw notFound();
}

export async function addComment(
  tx: Tx,
  scope: Scope,
  p: Principal,
  input: { pathUserId: number; caseId: number; content: string; now: Date },
): Promise<Comment> {
  if (input.pathUserId !== p.userId) throw forbidden(COMMENT_MSG.otherUser);
  const content = cleanContent(input.content);
  await requireCase(tx, scope, input.caseId);
  const id = await insertComment(tx, { tenantId: p.tenantId, caseId: input.caseId, userId: p.userId, content, now: input.now });
  return (await findComment(tx, scope, id))!;
}

export async function editComment(tx: Tx, scope: Scope, p: Principal, id: number, raw: string, now: Date): Promise<Comment> {
  const comment = await findComment(tx, scope, id, true);
  if (!comment) throw notFound();
  if (comment.userId !== p.userId) throw forbidden(COMMENT_MSG.notAuthor);
  await updateCommentContent(tx, comment.tenantId, id, cleanContent(raw), now);
  return (await findComment(tx, scope, id))!;
}

/** The author deletes its comment; an Admin deletes any comment of its tenant. */
export async function removeComment(tx: Tx, scope: Scope, p: Principal, id: number): Promise<void> {
  const comment = await findComment(tx, scope, id, true);
  if (!comment) throw notFound();
  const isTenantAdmin = p.roles.includes('Admin') && comment.tenantId === p.tenantId;
  if (comment.userId !== p.userId && !isTenantAdmin) throw forbidden(COMMENT_MSG.notAuthorOrAdmin);
  await deleteComment(tx, comment.tenantId, id);
}
