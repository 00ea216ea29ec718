import { AuthError } from "@auth/errors";
import { z } from "zod";
import { acceptdisclaimers } from "./flows/acceptdisclaimers.js";
import { checkcredentials } from "./flows/checkcredentials.js";
import { checkotp } from "./flows/checkotp.js";
import { checkpassword } from "./flows/checkpassword.js";
import { type Endpoint, openEndpoint, sessionEndpoint } from "./flows/endpoint.js";
import { login } from "./flows/login.js";
import { logout } from "./flows/logout.js";
import { oauth } from "./flows/oauth.js";
import { renewotp } from "./flows/renewotp.js";
import { setpassword } from "./flows/setpassword.js";
import { type Operation, takesToken } from "./flows/transitions.js";

/** An endpoint of the spec whose flow is not built yet: it answers, clearly, that it cannot serve. */
function notBuilt(operation: Operation): Endpoint {
  const refuse = async (): Promise<never> => {
    throw new AuthError("service.unavailable", { detail: `${operation} is not built yet` });
  };
  return takesToken(operation)
    ? sessionEndpoint(operation, z.object({}), refuse)
    : openEndpoint(operation, z.object({}), refuse);
}

/** Every endpoint of the spec, plus auth/recovery/checklink (DESIGN.md). */
export const endpoints: Endpoint[] = [
  login,
  checkpassword,
  checkcredentials,
  checkotp,
  renewotp,
  setpassword,
  oauth,
  acceptdisclaimers,
  logout,
  notBuilt("recovery/recover"),
  notBuilt("recovery/checkotp"),
  notBuilt("recovery/renewotp"),
  notBuilt("recovery/checkquestion"),
  notBuilt("recovery/checklink"),
];
