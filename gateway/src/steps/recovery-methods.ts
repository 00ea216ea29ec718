import { AuthError, type ErrorCode } from "@auth/errors";
import { RecoveryMethod, type User } from "@auth/proto/identity";
import type { TenantCompany } from "../endpoint/context.js";
import { step } from "../endpoint/step.js";

export type MethodName = "PHONE" | "MAIL" | "QUESTION";

export const methodOfName: Record<MethodName, RecoveryMethod> = {
  PHONE: RecoveryMethod.PHONE,
  MAIL: RecoveryMethod.MAIL,
  QUESTION: RecoveryMethod.QUESTION,
};

const designOrder: MethodName[] = ["PHONE", "MAIL", "QUESTION"];

const notSet: Record<MethodName, ErrorCode> = {
  PHONE: "recovery.phone.notset",
  MAIL: "recovery.email.notset",
  QUESTION: "recovery.question.notset",
};

function setUp(user: User, method: MethodName): boolean {
  switch (method) {
    case "PHONE":
      return user.phone !== undefined;
    case "MAIL":
      return user.email !== undefined;
    case "QUESTION":
      return user.controlQuestion !== undefined;
  }
}

/**
 * The company's order (PHONE, MAIL, QUESTION when it sets none: docs/api-contract.md, "Recovery"),
 * without the methods it or the user's role switched off.
 */
function enabledMethods(company: TenantCompany, user: User): MethodName[] {
  const settings = company.policy.recovery;
  const order = (settings?.order ?? [])
    .map((method) => designOrder.find((name) => methodOfName[name] === method))
    .filter((name): name is MethodName => name !== undefined);
  const disabled = new Set([
    ...(settings?.disabled ?? []),
    ...(settings?.disabledByRole[user.role]?.methods ?? []),
  ]);
  // Without a recovery page there is nothing to link to.
  if (!settings?.linkBase) disabled.add(RecoveryMethod.MAIL);
  return [...new Set([...order, ...designOrder])].filter((name) => !disabled.has(methodOfName[name]));
}

/**
 * spec 4.10 with docs/api-contract.md, "Recovery": the requested method, or the first in the
 * company's order that the user has set up. A switched-off method is recovery.method.restricted;
 * one the user lacks is its `*.notset` code.
 */
export const chooseRecoveryMethod = step(
  ["recovery.method.restricted", ...Object.values(notSet)],
  (company: TenantCompany, user: User, requested: MethodName | undefined): MethodName => {
    const enabled = enabledMethods(company, user);
    if (requested !== undefined) {
      if (!enabled.includes(requested)) throw new AuthError("recovery.method.restricted");
      if (!setUp(user, requested)) throw new AuthError(notSet[requested]);
      return requested;
    }
    const chosen = enabled.find((method) => setUp(user, method));
    if (chosen) return chosen;
    const [first] = enabled;
    throw new AuthError(first ? notSet[first] : "recovery.method.restricted");
  },
);
