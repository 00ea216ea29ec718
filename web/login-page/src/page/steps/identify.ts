import type { Flow } from "../flow.js";
import { startOAuth } from "../oauth.js";
import { PasskeySignIn } from "../passkey-sign-in.js";
import { element, newId, Step } from "../view.js";
import { text } from "../words.js";
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
  const step = new Step(text("identify.title"));
  const loginId = step.field({
    label: text("common.loginId"),
    name: "login_id",
    // The browser offers the site's passkeys in the field's autofill too (conditional UI).
    autocomplete: "username webauthn",
    value: flow.loginId,
  });
  step.submit(text("common.continue"), async () => {
    passkey.stop();
    flow.loginId = loginId.value.trim();
    flow.proceed(step, await flow.begin("login", { login_id: flow.loginId }), {
      "request.validation.failed": text("identify.loginIdMissing"),
    });
  });
  const passkey = new PasskeySignIn(flow, step);
  step.action(text("common.forgotPassword"), () => {
    passkey.stop();
    showRecoveryStart(flow);
  });
  if (flow.config.providers.length > 0) {
    const headingId = newId("heading");
    step.append(
      element(
        "section",
        { class: "providers", "aria-labelledby": headingId },
        element("h2", { id: headingId }, text("identify.otherWays")),
        ...flow.config.providers.map((provider) => {
          const button = element(
            "button",
            { type: "button" },
            text("identify.provider", { provider: provider.label }),
          );
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
