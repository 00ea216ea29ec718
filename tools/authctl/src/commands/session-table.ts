import { type Session, sessionStateToJSON } from "@auth/proto/session";
import Table from "cli-table3";

/** The state as the API names it: SESSION_STATE_RECOVERY_CHECKOTP is recovery-checkotp. */
export const stateName = (session: Session) =>
  sessionStateToJSON(session.state)
    .replace(/^SESSION_STATE_/, "")
    .toLowerCase()
    .replaceAll("_", "-");

const time = (at: Date | undefined) => at?.toISOString() ?? "";

/** A user's sessions as a plain table (no colours, so it stays readable when piped), never their tokens. */
export function sessionTable(sessions: Session[]): string {
  if (sessions.length === 0) return "no sessions";
  const table = new Table({
    head: ["session", "state", "started", "last seen", "expires", "address", "user agent"],
    style: { head: [], border: [] },
  });
  for (const session of sessions) {
    table.push([
      session.sessionId,
      stateName(session),
      time(session.createdAt),
      time(session.lastSeenAt),
      time(session.expiresAt),
      session.clientAddress,
      session.userAgent,
    ]);
  }
  return table.toString();
}
