import type { Endpoint } from "./endpoint/define.js";
import { acceptdisclaimers } from "./flows/acceptdisclaimers.js";
import { backupcodesGenerate } from "./flows/backupcodes/generate.js";
import { brand } from "./flows/brand.js";
import { checkcredentials } from "./flows/checkcredentials.js";
import { checkotp } from "./flows/checkotp.js";
import { checkpasskey } from "./flows/checkpasskey.js";
import { checkpassword } from "./flows/checkpassword.js";
import { emailChange } from "./flows/contact/email-change.js";
import { emailConfirm } from "./flows/contact/email-confirm.js";
import { phoneChange } from "./flows/contact/phone-change.js";
import { phoneConfirm } from "./flows/contact/phone-confirm.js";
import { events } from "./flows/events.js";
import { login } from "./flows/login.js";
import { logout } from "./flows/logout.js";
import { oauth } from "./flows/oauth.js";
import { passkeysConfirm } from "./flows/passkeys/confirm.js";
import { passkeysEnrol } from "./flows/passkeys/enrol.js";
import { passkeysList } from "./flows/passkeys/list.js";
import { passkeysRemove } from "./flows/passkeys/remove.js";
import { passkeysRename } from "./flows/passkeys/rename.js";
import { passkeysStart } from "./flows/passkeys/start.js";
import { passwordChange } from "./flows/password/change.js";
import { checklink } from "./flows/recovery/checklink.js";
import { recoveryCheckotp } from "./flows/recovery/checkotp.js";
import { checkquestion } from "./flows/recovery/checkquestion.js";
import { recover } from "./flows/recovery/recover.js";
import { recoveryRenewotp } from "./flows/recovery/renewotp.js";
import { renewotp } from "./flows/renewotp.js";
import { sessionsEnd } from "./flows/sessions/end.js";
import { sessionsList } from "./flows/sessions/list.js";
import { setpassword } from "./flows/setpassword.js";
import { totpConfirm } from "./flows/totp/confirm.js";
import { totpEnrol } from "./flows/totp/enrol.js";

/**
 * Every endpoint of the spec, plus auth/recovery/checklink (docs/api-contract.md, "Recovery"), the
 * user's own session management, security events and authenticator app (docs/api-contract.md,
 * "Session management", "The user's security events", "Authenticator app"), and passkeys and
 * backup codes (docs/api-contract.md, "Passkeys"), the user's own change of password, phone and
 * e-mail (docs/api-contract.md, "Changing the password", "Changing the phone or the e-mail"), and
 * the company's brand (docs/api-contract.md,
 * "Brand"): the routes and the OpenAPI document are made from this list, in its order.
 */
export const endpoints = [
  login,
  checkpassword,
  checkcredentials,
  checkotp,
  checkpasskey,
  passkeysStart,
  renewotp,
  setpassword,
  oauth,
  acceptdisclaimers,
  logout,
  recover,
  recoveryCheckotp,
  recoveryRenewotp,
  checkquestion,
  checklink,
  sessionsList,
  sessionsEnd,
  events,
  totpEnrol,
  totpConfirm,
  passkeysEnrol,
  passkeysConfirm,
  passkeysList,
  passkeysRename,
  passkeysRemove,
  backupcodesGenerate,
  passwordChange,
  phoneChange,
  phoneConfirm,
  emailChange,
  emailConfirm,
  brand,
] as const satisfies readonly Endpoint[];
