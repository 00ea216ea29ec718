import type { Reply } from "../api.js";
import { messageFor } from "../messages.js";
import { text } from "../words.js";

/** Why a link's token was refused: used or unknown, too old, cut short. */
export const linkProblem = (reply: Reply): string =>
  messageFor(reply, {
    "auth.token.invalid": text("recoveryLink.invalid"),
    "auth.token.expired": text("recoveryLink.expired"),
    "request.validation.failed": text("recoveryLink.incomplete"),
  });
