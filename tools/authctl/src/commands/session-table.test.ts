import { Session, SessionState } from "@auth/proto/session";
import { describe, expect, it } from "vitest";
import { table } from "../table.js";
import { sessionRecords } from "./session-table.js";

const sessionTable = (sessions: Session[]) => table(sessions, sessionRecords);

const session = Session.fromJSON({
  sessionId: "3f2a9c",
  state: "SESSION_STATE_RECOVERY_CHECKOTP",
  loginId: "cleo@example.com",
  createdAt: "2026-01-02T03:04:05Z",
  lastSeenAt: "2026-01-02T03:10:00Z",
  expiresAt: "2026-01-02T03:19:05Z",
  clientAddress: "203.0.113.7",
  userAgent: "Mozilla/5.0",
});

describe("authctl session list (text)", () => {
  it("prints a table with a header and one row per session, the state named as the API names it", () => {
    const lines = sessionTable([
      session,
      { ...session, sessionId: "77aa01", state: SessionState.AUTHORIZED },
    ]).split("\n");
    const header = lines.find((line) => line.includes("session"));
    expect(header).toMatch(
      /session\s+│\s+state\s+│\s+started\s+│\s+last seen\s+│\s+expires\s+│\s+address\s+│\s+user agent/,
    );
    const row = lines.find((line) => line.includes("3f2a9c"));
    expect(row).toContain("recovery-checkotp");
    expect(row).toContain("2026-01-02T03:04:05.000Z");
    expect(row).toContain("2026-01-02T03:10:00.000Z");
    expect(row).toContain("203.0.113.7");
    expect(row).toContain("Mozilla/5.0");
    expect(lines.find((line) => line.includes("77aa01"))).toContain("authorized");
  });

  it("uses no colour codes, so the output stays plain when piped", () => {
    expect(sessionTable([session])).not.toContain("\u001b[");
  });

  it("never shows the login ID", () => {
    expect(sessionTable([session])).not.toContain("cleo@example.com");
  });

  it("says so when the user has no session", () => {
    expect(sessionTable([])).toBe("no sessions");
  });
});
