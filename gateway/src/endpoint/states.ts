import { SessionState } from "@auth/proto/session";

/** The session states of spec section 3, by the names clients see. */
export const stateOfName = {
  checkpassword: SessionState.CHECKPASSWORD,
  checkotp: SessionState.CHECKOTP,
  setpassword: SessionState.SETPASSWORD,
  authorized: SessionState.AUTHORIZED,
  acceptdisclaimers: SessionState.ACCEPTDISCLAIMERS,
  "recovery-checkotp": SessionState.RECOVERY_CHECKOTP,
  "recovery-checkquestion": SessionState.RECOVERY_CHECKQUESTION,
  "recovery-setpassword": SessionState.RECOVERY_SETPASSWORD,
} as const;

export type StateName = keyof typeof stateOfName;

const nameOfState = new Map<SessionState, StateName>(
  Object.entries(stateOfName).map(([name, state]) => [state, name as StateName]),
);

export function stateName(state: SessionState): StateName {
  const name = nameOfState.get(state);
  if (!name) throw new Error(`session in unknown state ${state}`);
  return name;
}
