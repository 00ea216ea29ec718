import { pageRoutes } from "../../shared/page-config.js";
import type { Flow } from "../flow.js";
import { messageFor } from "../messages.js";
import { texts } from "../texts.js";
import { Step } from "../view.js";
import { showRecoveryStart } from "./recovery-start.js";

const words = texts.recovery;

const linkMessages = {
  "auth.token.invalid": words.linkInvalid,
  "auth.token.expired": words.linkExpired,
  "request.validation.failed": words.linkIncomplete,
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
  const step = new Step(words.linkTitle);
  step.error(words.askNewLink(messageFor(reply, linkMessages)));
  step.submit(words.title, () => showRecoveryStart(flow));
  step.action(words.back, () => flow.restart());
  step.show();
}
