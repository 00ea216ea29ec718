import { AccountSection } from "./account-section.js";
import type { Flow } from "./flow.js";
import { clearWhenWrong } from "./typed-secret.js";
import { codeField, labelledField, type Step } from "./view.js";
import { text } from "./words.js";

/**
 * "Change your phone number" in the signed-in view (docs/api-contract.md, "Changing the phone or
 * the e-mail"): the new number gets a code by SMS (auth/phone/change), and the code, typed in a
 * field like the authenticator setup's, makes it the user's (auth/phone/confirm). Sending again
 * replaces the code. Where the phone was the user's second factor, the user's other sessions end.
 */
export function offerPhoneChange(flow: Flow, step: Step, onSessionsEnded: () => Promise<void>): void {
  const section = new AccountSection(flow, step, text("phoneChange.heading"), text("phoneChange.intro"));
  const phone = labelledField({
    label: text("phoneChange.label"),
    name: "phone",
    type: "tel",
    autocomplete: "tel",
    hint: text("phoneChange.hint"),
  });
  const code = codeField("code", text("otp.smsLabel"));
  /** The new phone, masked, as the answer named it. */
  let sentTo = "";
  section.form([phone.box], text("phoneChange.send"), async () => {
    const reply = await flow.send("phone/change", { phone: phone.input.value.trim() });
    if (reply.answer.status !== "success") {
      section.fail(reply, { "request.validation.failed": text("phoneChange.invalid") });
      phone.input.focus();
      return;
    }
    sentTo = reply.answer.user_phone ?? "";
    section.notice(text("phoneChange.sent", { phone: sentTo }));
    confirm.element.hidden = false;
    code.input.focus();
  });
  const confirm = section.form(
    [code.box],
    text("phoneChange.confirm"),
    async () => {
      const reply = await flow.send("phone/confirm", { code: code.input.value.trim() });
      if (reply.answer.status !== "success") {
        section.fail(reply);
        clearWhenWrong(reply, code.input);
        return;
      }
      confirm.element.hidden = true;
      phone.input.value = "";
      code.input.value = "";
      await onSessionsEnded();
      section.notice(text("phoneChange.done", { phone: sentTo }));
    },
    { primary: true },
  );
  confirm.element.hidden = true;
}
