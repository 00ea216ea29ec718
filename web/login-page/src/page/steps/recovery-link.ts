import { pageRoutes } from "../../shared/page-config.js";
import type { Flow } from "../flow.js";
import { messageFor } from "../messages.js";
import { Step } from "../view.js";
import { showRecoveryStart } from "./recovery-start.js";

const linkMessages = {
  "auth.token.invalid": "This link is not valid, or it was used before.",
  "auth.token.expired": "This link has expired.",
  "request.validation.failed": "This link is incomplete.",
};

/**
 * The recovery e-mail's link (auth/recovery/checklink, docs/api-contract.md, "Recovery"): its token
 * starts recovery-setpassword.
 */
export async function checkRecoveryLink(flow: Flow): Promise<void> {
  const token = new URLSearchParams(location.search).get("token") ?? "";
  // The link works once: its token leaves the address bar and the history.
  history.replaceState(null, "", pageRoutes.start);
  const reply = await flow.begin("recovery/checklink", { token });
  if (reply.answer.status === "success") {
    flow.next(reply.answer);
    return;
  }
  const step = new Step("This link cannot be used");
  step.error(`${messageFor(reply, linkMessages)} You can ask for a new link.`);
  step.submit("Recover access", () => showRecoveryStart(flow));
  step.action("Back to sign in", () => flow.restart());
  step.show();
}
