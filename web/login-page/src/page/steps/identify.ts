import type { Flow } from "../flow.js";
import { startOAuth } from "../oauth.js";
import { PasskeySignIn } from "../passkey-sign-in.js";
import { element, newId, Step } from "../view.js";
import { showRecoveryStart } from "./recovery-start.js";

export interface StartMessages {
  error?: string;
  notice?: string;
}

/**
 * The first step: the login ID (auth/login), a passkey instead (in the field's autofill, or from its
 * button), the company's OAuth providers, and the way to recovery.
 */
export function showIdentify(flow: Flow, messages: StartMessages = {}): void {
  const step = new Step("Sign in");
  const loginId = step.field({
    label: "Phone number, e-mail or login name",
    name: "login_id",
    // The browser offers the site's passkeys in the field's autofill too (conditional UI).
    autocomplete: "username webauthn",
    value: flow.loginId,
  });
  step.submit("Continue", async () => {
    passkey.stop();
    flow.loginId = loginId.value.trim();
    flow.proceed(step, await flow.begin("login", { login_id: flow.loginId }), {
      "request.validation.failed": "Please enter your phone number, e-mail address or login name.",
    });
  });
  const passkey = new PasskeySignIn(flow, step);
  step.action("Forgot your password?", () => {
    passkey.stop();
    showRecoveryStart(flow);
  });
  if (flow.config.providers.length > 0) {
    const headingId = newId("heading");
    step.append(
      element(
        "section",
        { class: "providers", "aria-labelledby": headingId },
        element("h2", { id: headingId }, "Or sign in with"),
        ...flow.config.providers.map((provider) => {
          const button = element("button", { type: "button" }, `Sign in with ${provider.label}`);
          button.addEventListener("click", () => void step.run(() => startOAuth(provider)));
          return button;
        }),
      ),
    );
  }
  if (messages.error) step.error(messages.error);
  if (messages.notice) step.notice(messages.notice);
  step.show();
}
