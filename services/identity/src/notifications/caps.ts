import { NotificationEvent } from "@auth/proto/identity";
import type { KnownEvent } from "./templates.js";

/** The window each kind of notice is capped in, per user (docs/security.md, "Notifications"). */
export const noticeWindowSeconds = 15 * 60;

/**
 * How many notices of each kind one user is sent in any `noticeWindowSeconds` (docs/security.md,
 * "Notifications"). One by default: a recovery's start and a lock-out, which anyone who knows a
 * login ID can cause, and a recovery's end, whose new password PASSWORD_CHANGED tells of too (the
 * three the session service may ask for). Five for a change of the account's password, backup codes,
 * authenticator app, passkeys, phone or e-mail, which only the account's holder or an operator can
 * make and each of which the user must hear of: the second change in a quarter of an hour may be
 * the one that was not the user's; and for a passkey suspected of being a clone, told once per
 * credential (it is refused from then on). Three for a sign-in from a new device: each is one the
 * user must hear of, and only the account's holder (or one who has its password) can cause them;
 * more in a quarter of an hour would be noise, and the session list shows them all.
 */
export const noticesPerWindow: Record<KnownEvent, number> = {
  [NotificationEvent.RECOVERY_STARTED]: 1,
  [NotificationEvent.RECOVERY_COMPLETED]: 1,
  [NotificationEvent.LOCKED_OUT]: 1,
  [NotificationEvent.PASSWORD_CHANGED]: 5,
  [NotificationEvent.BACKUP_CODES_ISSUED]: 5,
  [NotificationEvent.AUTHENTICATOR_APP_ADDED]: 5,
  [NotificationEvent.AUTHENTICATOR_APP_REMOVED]: 5,
  [NotificationEvent.PASSKEY_ADDED]: 5,
  [NotificationEvent.PASSKEY_RENAMED]: 5,
  [NotificationEvent.PASSKEY_REMOVED]: 5,
  [NotificationEvent.PASSKEY_CLONE_SUSPECTED]: 5,
  [NotificationEvent.PHONE_CHANGED]: 5,
  [NotificationEvent.EMAIL_CHANGED]: 5,
  [NotificationEvent.NEW_DEVICE]: 3,
};
