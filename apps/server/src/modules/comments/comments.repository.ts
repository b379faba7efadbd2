import type { Comment } from '@vigil/contracts';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Tx } from '../../db/client.ts';
import type { Scope } from '../../db/scope.ts';
import { allOf, at, containsPattern, inTenant, isoOf, orderBy, pageOf } from '../../db/sql-list.ts';

interface CommentRow {
  id: number;
  tenantId: number;
  userId: number;
  userName: string;
  content: string;
  caseId: number;
  createdAt: unknown;
  updatedAt: unknown;
}

const toComment = ({ tenantId: _tenant, ...r }: CommentRow): Comment => ({
  ...r,
  createdAt: isoOf(r.createdAt),
  updatedAt: isoOf(r.updatedAt),
});

const COMMENT_SELECT = sql`select m.id, m.tenant_id as "tenantId", m.user_id as "userId", coalesce(u.name, '') as "userName", m.content,
    m.case_id as "caseId", m.created_at as "createdAt", m.updated_at as "updatedAt"
  from comments m left join users u on u.id = m.user_id`;

const COMMENT_SORT = { createdAt: sql`m.created_at`, updatedAt: sql`m.updated_at`, id: sql`m.id` };

export interface CommentListQuery {
  offset: number;
  limit: number;
  sort?: { field: keyof typeof COMMENT_SORT; dir: 'ASC' | 'DESC' };
  filter: { userId?: number; q?: string };
}

export async function listComments(tx: Tx, scope: Scope, caseId: number, q: CommentListQuery): Promise<{ list: Comment[]; count: number }> {
  const where: SQL[] = [inTenant(scope, sql`m.tenant_id`), sql`m.case_id = ${caseId}`];
  if (q.filter.userId !== undefined) where.push(sql`m.user_id = ${q.filter.userId}`);
  if (q.filter.q) where.push(sql`m.content ilike ${containsPattern(q.filter.q)}`);
  const rows = await queryRows<CommentRow>(
    tx,
    sql`${COMMENT_SELECT} where ${allOf(where)} ${orderBy(q.sort, COMMENT_SORT, sql`m.created_at desc, m.id desc`)} ${pageOf(q)}`,
  );
  const [total] = await queryRows<{ count: number }>(tx, sql`select count(*)::int as count from comments m where ${allOf(where)}`);
  return { list: rows.map(toComment), count: total?.count ?? 0 };
}

export async function findComment(tx: Tx, scope: Scope, id: number, lock = false): Promise<(Comment & { tenantId: number }) | undefined> {
  const [row] = await queryRows<CommentRow>(
    tx,
    sql`${COMMENT_SELECT} where ${inTenant(scope, sql`m.tenant_id`)} and m.id = ${id} ${lock ? sql`for update of m` : sql``}`,
  );
  return row && { ...toComment(row), tenantId: row.tenantId };
}

export async function insertComment(
  tx: Tx,
  c: { tenantId: number; caseId: number; userId: number; content: string; now: Date },
): Promise<number> {
  const [row] = await queryRows<{ id: number }>(
    tx,
    sql`insert into comments (tenant_id, case_id, user_id, content, created_at, updated_at)
        values (${c.tenantId}, ${c.caseId}, ${c.userId}, ${c.content}, ${at(c.now)}, ${at(c.now)}) returning id`,
  );
  return row.id;
}

export async function updateCommentContent(tx: Tx, tenantId: number, id: number, content: string, now: Date): Promise<void> {
  await tx.execute(sql`update comments set content = ${content}, updated_at = ${at(now)} where tenant_id = ${tenantId} and id = ${id}`);
}

export async function deleteComment(tx: Tx, tenantId: number, id: number): Promise<void> {
  await tx.execute(sql`delete from comments where tenant_id = ${tenantId} and id = ${id}`);
}
