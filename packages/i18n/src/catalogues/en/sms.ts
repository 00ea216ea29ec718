/** The SMS that carries a one-time code (services/otp): {code} and its lifetime, {minutes}. */
export const sms = {
  login:
    "Your login code is {code}. It expires in {minutes, plural, one {# minute} other {# minutes}}. Never share it.",
  recovery:
    "Your access recovery code is {code}. It expires in {minutes, plural, one {# minute} other {# minutes}}. Never share it.",
  phoneChange:
    "Your code to confirm this phone number for your account is {code}. It expires in {minutes, plural, one {# minute} other {# minutes}}. Never share it.",
} as const;
