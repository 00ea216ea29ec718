import type { Endpoint } from "./endpoint/define.js";
import { acceptdisclaimers } from "./flows/acceptdisclaimers.js";
import { checkcredentials } from "./flows/checkcredentials.js";
import { checkotp } from "./flows/checkotp.js";
import { checkpassword } from "./flows/checkpassword.js";
import { login } from "./flows/login.js";
import { logout } from "./flows/logout.js";
import { oauth } from "./flows/oauth.js";
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
 * Every endpoint of the spec, plus auth/recovery/checklink (docs/api-contract.md, "Recovery") and
 * the user's own session management and authenticator app (docs/api-contract.md, "Session
 * management", "Authenticator app"): the
 * routes and the OpenAPI document are made from this list, in its order.
 */
export const endpoints = [
  login,
  checkpassword,
  checkcredentials,
  checkotp,
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
  totpEnrol,
  totpConfirm,
] as const satisfies readonly Endpoint[];
