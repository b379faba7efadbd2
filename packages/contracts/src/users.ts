import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { SELECTABLE_ROLES, ROLES } from './enums.ts';
import { dataOf, idParams, isoDateTime, listOf, okBody } from './envelope.ts';
import { requiredText } from './fields.ts';
import { listQuery, qFilter } from './list-query.ts';
import { MSG } from './messages.ts';

export const USER_MSG = {
  emailTaken: 'A user with this email already exists.',
  emailFormat: 'Please input a valid email address',
  roleValue: `Roles must be among: ${SELECTABLE_ROLES.join(', ')}`,
  lastAdmin: 'A tenant must keep at least one Admin. Make another user Admin first.',
  deleteSelf: 'You cannot delete your own account here.',
  alreadyActive: 'This user has already set a password; no invitation is needed.',
} as const;

/** Splits a full name as the product reads it: the first word is the first name, the rest the last name. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const words = name.trim().split(/\s+/).filter(Boolean);
  return { firstName: words[0] ?? '', lastName: words.slice(1).join(' ') };
}

/** The product's join: first plus last with a space (no trailing space when last is empty). */
export const joinName = (firstName: string, lastName: string) => [firstName.trim(), lastName.trim()].filter(Boolean).join(' ');

const emailField = (message: string) => requiredText(message, 320).refine((v) => /^[^\s@]+@[^\s@]+$/.test(v), USER_MSG.emailFormat);

/** Roles a tenant user may hold (docs/decisions.md 37: every role but superAdmin), at least one; duplicates dropped. */
const rolesField = (message: string) =>
  z
    .array(z.enum(SELECTABLE_ROLES, { error: USER_MSG.roleValue }), { error: message })
    .min(1, message)
    .transform((roles) => [...new Set(roles)]);

/** Ids are PostgreSQL integers; anything larger is not an id (and must not reach the database). */
const MAX_ID = 2147483647;

/** Tenant select of the superAdmin's forms; null or missing means "not chosen". */
const tenantChoice = (message: string) =>
  z.number({ error: message }).int(message).positive(message).max(MAX_ID, message).nullable().optional();

const firstNameField = requiredText(MSG.firstName);
const lastNameField = z.string({ error: MSG.lastName }).trim().max(200, 'at most 200 characters');

/**
 * The Add New User dialog (docs/web.md "Pages of web I", docs/product.md "Validation"). `tenantId` is read only from a superAdmin. Name comes as
 * `name` or as firstName + lastName, the user's own fields (those win when both are sent, as on edit).
 */
export const createUserBody = z
  .strictObject({
    tenantId: tenantChoice(MSG.selectTenant),
    name: requiredText(MSG.fullName).optional(),
    firstName: firstNameField.optional(),
    lastName: lastNameField.optional(),
    email: emailField(MSG.email),
    phone: requiredText(MSG.phone, 50),
    roles: rolesField(MSG.roles),
  })
  .refine((b) => b.name !== undefined || b.firstName !== undefined || b.lastName !== undefined, { message: MSG.fullName, path: ['name'] });
export type CreateUserBody = z.infer<typeof createUserBody>;

/**
 * User edit (docs/web.md "Pages of web I"). Name comes as `name` or as firstName + lastName
 * (those win when both are sent). `tenantName` is derived from tenantId and ignored.
 */
export const updateUserBody = z.strictObject({
  name: requiredText(MSG.fullName).optional(),
  firstName: firstNameField.optional(),
  lastName: lastNameField.optional(),
  email: emailField(MSG.email).optional(),
  phone: requiredText(MSG.phone, 50).optional(),
  roles: rolesField(MSG.editRoles).optional(),
  tenantId: tenantChoice(MSG.editTenant),
  tenantName: z.string().max(200).optional(),
});
export type UpdateUserBody = z.infer<typeof updateUserBody>;

export const userSchema = z.object({
  id: z.number().int(),
  /** -1 when the user has no tenant yet. */
  tenantId: z.number().int(),
  tenantName: z.string(),
  name: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  phone: z.string(),
  roles: z.array(z.enum(ROLES)),
  /** Created by an Admin or superAdmin and has not chosen a password yet. */
  invited: z.boolean(),
  emailVerified: z.boolean(),
  createdAt: isoDateTime,
});
export type User = z.infer<typeof userSchema>;

export const USER_SORT_FIELDS = ['name', 'email', 'phone', 'createdAt', 'tenantName', 'id'] as const;
/** `filter.tenantId` is honoured for the superAdmin only; an Admin always sees its own tenant. */
export const userListQuery = listQuery({
  sort: USER_SORT_FIELDS,
  filter: { q: qFilter, tenantId: z.number().int().positive().max(MAX_ID).optional() },
});

export const usersEndpoints = {
  list: endpoint({
    method: 'GET',
    path: '/v0/api/users',
    tag: 'users',
    summary: 'Users (superAdmin: all tenants; Admin: its own), paged, sorted and filtered',
    query: userListQuery,
    response: listOf(userSchema),
  }),
  create: endpoint({
    method: 'POST',
    path: '/v0/api/users',
    tag: 'users',
    status: 201,
    summary: 'Adds a user without a password and mails an invitation link (72 hours)',
    body: createUserBody,
    response: dataOf(userSchema),
  }),
  get: endpoint({
    method: 'GET',
    path: '/v0/api/users/:id',
    tag: 'users',
    summary: 'One user',
    params: idParams,
    response: dataOf(userSchema),
  }),
  update: endpoint({
    method: 'PATCH',
    path: '/v0/api/users/:id',
    tag: 'users',
    summary: 'Changes a user; a change of roles or tenant ends its sessions',
    params: idParams,
    body: updateUserBody,
    response: dataOf(userSchema),
  }),
  remove: endpoint({
    method: 'DELETE',
    path: '/v0/api/users/:id',
    tag: 'users',
    summary: 'Deactivates a user and ends its sessions',
    params: idParams,
    response: okBody,
  }),
  resendInvitation: endpoint({
    method: 'POST',
    path: '/v0/api/users/:id/invitation',
    tag: 'users',
    summary: 'Mails a new invitation link to a user who has not chosen a password yet',
    params: idParams,
    body: z.strictObject({}).nullish(),
    response: okBody,
  }),
};
