export const chromiumPath: string;
export const chromiumArgs: string[];
export function browserAvailable(what: string): boolean;
