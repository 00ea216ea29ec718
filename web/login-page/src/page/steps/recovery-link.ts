import { pageRoutes } from "../../shared/page-config.js";
import type { Flow } from "../flow.js";
import { messageFor } from "../messages.js";
import { Step } from "../view.js";
import { text } from "../words.js";
import { showRecoveryStart } from "./recovery-start.js";

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
  const step = new Step(text("recoveryLink.title"));
  const why = messageFor(reply, {
    "auth.token.invalid": text("recoveryLink.invalid"),
    "auth.token.expired": text("recoveryLink.expired"),
    "request.validation.failed": text("recoveryLink.incomplete"),
  });
  step.error(`${why} ${text("recoveryLink.askNew")}`);
  step.submit(text("recoveryLink.recover"), () => showRecoveryStart(flow));
  step.action(text("common.backToSignIn"), () => flow.restart());
  step.show();
}
