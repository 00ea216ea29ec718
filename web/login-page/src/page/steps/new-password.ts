import type { Answer } from "../api.js";
import type { Flow } from "../flow.js";
import { checkbox, Step } from "../view.js";

/** setpassword and recovery-setpassword: a new password, with the company's rules as its hint. */
export function showNewPassword(flow: Flow, answer: Answer): void {
  const recovery = answer.session_state === "recovery-setpassword";
  const step = new Step(
    "Choose a new password",
    recovery ? "You proved who you are." : "You have to choose a new password before you go on.",
  );
  // The gateway describes every rule of this user's new password (docs/security.md, "Passwords").
  const rules = answer.password_regex_description ?? "";
  step.username(flow.loginId);
  const password = step.field({
    label: "New password",
    name: "new_password",
    type: "password",
    autocomplete: "new-password",
    hint: rules,
  });
  const { box, input: reveal } = checkbox("Show the password");
  reveal.addEventListener("change", () => {
    password.type = reveal.checked ? "text" : "password";
  });
  step.add(box);
  step.submit("Save the new password", async () => {
    const reply = await flow.send("setpassword", { new_password: password.value });
    if (reply.answer.status === "error") {
      // The 422 names the rule the password breaks.
      const broken = reply.answer.password_regex_description ?? rules;
      flow.fail(step, reply, { "request.validation.failed": `This password cannot be used. ${broken}` });
      password.focus();
    } else if (recovery) {
      flow.end();
      showPasswordChanged(flow);
    } else {
      flow.next(reply.answer);
    }
  });
  step.show();
}

/** After a recovery: no session is left (every session of the user ended); the user signs in anew. */
function showPasswordChanged(flow: Flow): void {
  const step = new Step(
    "Your password is changed",
    "Sign in with your new password. You were signed out everywhere else.",
  );
  step.submit("Sign in", () => flow.restart());
  step.show();
}
