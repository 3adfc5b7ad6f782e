// Rules shared by organization schedules and their fragments.
import { notPermitted } from "../../core/errors.js";

/** A schedule or fragment needs a name of at least one character. */
export function checkName(name: string): void {
  if (name.trim() === "")
    throw notPermitted("name", "the name is empty", "Send a name of at least one character.");
}
