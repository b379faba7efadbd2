import type { AppDeps } from '../../deps.ts';
import { invitationMail, tokenLink } from '../../mail/templates.ts';
import type { Invitation } from './users.service.ts';

/**
 * Mails the invitation after its transaction committed. A mail failure does not
 * undo the user: it is logged (without the token) and an Admin can send a new
 * invitation with POST /users/:id/invitation.
 */
export async function sendInvitation(deps: AppDeps, invitation: Invitation): Promise<boolean> {
  const link = tokenLink(deps.config.publicUrl, 'password-confirmation', invitation.token);
  const mail = invitationMail({ name: invitation.name, link, tenantName: invitation.tenantName });
  try {
    await deps.mailer.send({ to: invitation.email, ...mail });
    return true;
  } catch (err) {
    deps.log.error({ userId: invitation.userId, err: err instanceof Error ? err.message : String(err) }, 'invitation mail failed');
    return false;
  }
}
