// How a form's fields read in the quick input (the review of a tool call's arguments, an elicitation): a required
// field says so in words, "a (required)", never a bare "a *" that a newcomer reads as multiplication.

export const fieldLabel = (field: { title: string; required: boolean }): string => `${field.title}${field.required ? ' (required)' : ''}`;
