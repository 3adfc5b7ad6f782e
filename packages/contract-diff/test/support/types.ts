// biome-ignore lint/suspicious/noExplicitAny: test documents are free-form JSON
export type Json = Record<string, any>;
