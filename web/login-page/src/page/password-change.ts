import { AccountSection } from "./account-section.js";
import { Captcha } from "./captcha.js";
import type { Flow } from "./flow.js";
import { showPasswordChanged } from "./steps/new-password.js";
import { clearWhenWrong } from "./typed-secret.js";
import { checkbox, hiddenUsername, labelledField, type Step } from "./view.js";
import { text } from "./words.js";

/**
 * "Change your password" in the signed-in view (docs/api-contract.md, "Changing the password"): the
 * current password, which may be left out right after a sign-in with all the user's factors (else
 * 403 auth.reauthentication.required); the new one, under the company's rules, which a refusal
 * names; and whether this session ends too. The user's other sessions end; this one goes on under
 * the new token the answer carries, which the flow keeps (flow.ts), or ends with them.
 */
export function offerPasswordChange(flow: Flow, step: Step, onSessionsEnded: () => Promise<void>): void {
  const section = new AccountSection(
    flow,
    step,
    text("passwordChange.heading"),
    text("passwordChange.intro"),
  );
  const current = labelledField({
    label: text("passwordChange.currentLabel"),
    name: "current_password",
    type: "password",
    autocomplete: "current-password",
    hint: text("passwordChange.currentHint"),
  });
  const next = labelledField({
    label: text("newPassword.label"),
    name: "new_password",
    type: "password",
    autocomplete: "new-password",
  });
  const signOut = checkbox(text("passwordChange.signOutHere"));
  const form = section.form(
    [...hiddenUsername(flow.loginId), current.box, next.box, signOut.box],
    text("passwordChange.submit"),
    async () => {
      const reply = await flow.send("password/change", {
        ...(current.input.value ? { current_password: current.input.value } : {}),
        new_password: next.input.value,
        end_this_session: signOut.input.checked,
        ...captcha.fields(),
      });
      const { answer } = reply;
      if (answer.status !== "success") {
        if (answer.captcha_required !== undefined) captcha.ask(answer.captcha_required);
        // The 422 names the rule the new password breaks.
        const rules = answer.password_regex_description;
        section.fail(reply, {
          "auth.reauthentication.required": text("passwordChange.reauthenticate"),
          ...(rules ? { "request.validation.failed": text("newPassword.refused", { rules }) } : {}),
        });
        clearWhenWrong(reply, current.input);
        return;
      }
      if (signOut.input.checked) {
        flow.end();
        showPasswordChanged(flow);
        return;
      }
      current.input.value = "";
      next.input.value = "";
      // The list first: the step takes no other action until this handler returns.
      await onSessionsEnded();
      const ended = answer.sessions_ended ?? 0;
      section.notice(
        [
          text("passwordChange.done"),
          ...(ended > 0 ? [text("signedIn.otherSessionsEnded", { count: ended })] : []),
        ].join(" "),
      );
    },
  );
  // Asked after failed passwords, as at the sign-in.
  const captcha = new Captcha(form, false);
}
