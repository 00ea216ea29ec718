import { Session, sessionStateToJSON } from "@auth/proto/session";
import type { Records } from "../table.js";

/** The state as the API names it: SESSION_STATE_RECOVERY_CHECKOTP is recovery-checkotp. */
const stateName = (session: Session) =>
  sessionStateToJSON(session.state)
    .replace(/^SESSION_STATE_/, "")
    .toLowerCase()
    .replaceAll("_", "-");

const time = (at: Date | undefined) => at?.toISOString() ?? "";

/** A user's sessions, never their tokens. */
export const sessionRecords: Records<Session> = {
  columns: [
    { header: "session", cell: (session) => session.sessionId },
    { header: "state", cell: stateName },
    { header: "started", cell: (session) => time(session.createdAt) },
    { header: "last seen", cell: (session) => time(session.lastSeenAt) },
    { header: "expires", cell: (session) => time(session.expiresAt) },
    { header: "address", cell: (session) => session.clientAddress },
    { header: "user agent", cell: (session) => session.userAgent },
  ],
  none: "no sessions",
  toJSON: (session) => Session.toJSON(session),
};
