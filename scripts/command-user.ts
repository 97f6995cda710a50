import { userInfo } from "node:os";

/** Who runs a command, as a run's origin names them: the machine's user (the command line has no sign-in). */
export function commandUser(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? "unknown";
  }
}
