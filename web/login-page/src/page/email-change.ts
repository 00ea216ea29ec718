import { AccountSection } from "./account-section.js";
import type { Flow } from "./flow.js";
import { labelledField, type Step } from "./view.js";
import { text } from "./words.js";

/**
 * "Change your e-mail address" in the signed-in view (docs/api-contract.md, "Changing the phone or
 * the e-mail"): a link goes to the new address (auth/email/change), and opening it makes the
 * address the user's (steps/email-link.ts), on any device.
 */
export function offerEmailChange(flow: Flow, step: Step): void {
  const section = new AccountSection(flow, step, text("emailChange.heading"), text("emailChange.intro"));
  const email = labelledField({
    label: text("emailChange.label"),
    name: "email",
    type: "email",
    autocomplete: "email",
  });
  section.form([email.box], text("emailChange.send"), async () => {
    const reply = await flow.send("email/change", { email: email.input.value.trim() });
    if (reply.answer.status !== "success") {
      section.fail(reply, {
        "request.validation.failed": text("emailChange.invalid"),
        // The company has no recovery page for the link to open.
        "recovery.email.notset": text("emailChange.notOffered"),
      });
      email.input.focus();
      return;
    }
    email.input.value = "";
    section.notice(text("emailChange.sent", { email: reply.answer.user_email ?? "" }));
  });
}
