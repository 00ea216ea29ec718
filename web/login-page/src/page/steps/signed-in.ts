import type { Answer } from "../api.js";
import { signedInWithApp } from "../authentication.js";
import { AuthenticatorSetup } from "../authenticator.js";
import { BackupCodes } from "../backup-codes.js";
import { offerEmailChange } from "../email-change.js";
import type { Flow } from "../flow.js";
import { PasskeySettings } from "../passkey-settings.js";
import { offerPasswordChange } from "../password-change.js";
import { offerPhoneChange } from "../phone-change.js";
import { SecurityEvents } from "../security-events.js";
import { SessionList } from "../sessions.js";
import { Step } from "../view.js";
import { text } from "../words.js";

/**
 * authorized: where a client app would take over with the session token; the user's sessions
 * below, their recent security activity, their passkeys, the setup of an authenticator app, new
 * backup codes, and the changes of their password, phone and e-mail.
 */
export function showSignedIn(flow: Flow, answer: Answer): void {
  const step = new Step(
    text("signedIn.title"),
    text("signedIn.profile", { profile: answer.profile_mnemocode ?? "" }),
  );
  step.submit(text("signedIn.signOut"), async () => {
    const reply = await flow.send("logout");
    if (reply.answer.status === "success") flow.restart({ notice: text("signedIn.signedOut") });
    else flow.fail(step, reply);
  });
  const sessions = new SessionList(flow, step);
  const events = new SecurityEvents(flow, step);
  const onEnrolled = async (enrolled: Answer) => {
    if (enrolled.backup_codes) backupCodes.showFirst(enrolled.backup_codes);
    await sessions.load();
  };
  const passkeys = new PasskeySettings(flow, step, onEnrolled);
  // Not as step actions: a step takes one action at a time and drops clicks meanwhile, and the
  // user may click Sign out or set up an app before the lists have come.
  const listed = sessions.load();
  void events.load();
  void passkeys.load();
  new AuthenticatorSetup(flow, step, {
    // The list tells how this session was signed in: with an app's code, the user has that app.
    hasApp: async () => {
      await listed;
      return signedInWithApp(sessions.authentication);
    },
    onEnrolled,
  });
  const backupCodes = new BackupCodes(flow, step);
  const listAgain = () => sessions.load();
  offerPasswordChange(flow, step, listAgain);
  offerPhoneChange(flow, step, listAgain);
  offerEmailChange(flow, step);
  step.show();
}
