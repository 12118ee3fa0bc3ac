/** A JSON Schema property, as far as the form reads it. */
export interface PropertySchema {
  type?: string | string[];
  description?: string;
  enum?: unknown[];
  items?: PropertySchema;
  default?: unknown;
}

/** An object schema: a tool's parameters. */
export interface ObjectSchema {
  properties?: Record<string, PropertySchema>;
  required?: string[];
}

/** What a field holds as the person types: text, or a checkbox's state. */
export type FieldValues = Record<string, string | boolean>;

function typeOf(schema: PropertySchema): string {
  const type = Array.isArray(schema.type) ? schema.type.find((each) => each !== 'null') : schema.type;
  return type ?? 'json';
}

/**
 * The arguments the fields make: numbers parsed, arrays of strings one per line, objects and
 * anything else as JSON; empty optional fields left out. Throws on JSON that does not parse.
 */
export function argumentsOf(schema: ObjectSchema, values: FieldValues): Record<string, unknown> {
  const args: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const value = values[name];
    const type = typeOf(property);
    if (type === 'boolean') {
      if (value !== undefined) args[name] = value === true;
      continue;
    }
    if (typeof value !== 'string' || value.trim() === '') continue;
    if (type === 'integer' || type === 'number') args[name] = Number(value);
    else if (type === 'array' && typeOf(property.items ?? {}) === 'string') args[name] = value.split('\n').filter(Boolean);
    else if (type === 'string') args[name] = value;
    else args[name] = JSON.parse(value);
  }
  return args;
}

/** A form field for each property of `schema`: text, number, checkbox, a choice, lines or JSON. */
export function SchemaFields({
  schema,
  values,
  onChange,
  idPrefix,
}: {
  schema: ObjectSchema;
  values: FieldValues;
  onChange: (values: FieldValues) => void;
  idPrefix: string;
}) {
  const required = new Set(schema.required ?? []);
  return (
    <>
      {Object.entries(schema.properties ?? {}).map(([name, property]) => {
        const id = `${idPrefix}-${name}`;
        const type = typeOf(property);
        const set = (value: string | boolean) => onChange({ ...values, [name]: value });
        const text = typeof values[name] === 'string' ? (values[name] as string) : '';
        const label = (
          <label for={id}>
            {name}
            {required.has(name) ? ' (required)' : ''} <span class="meta">{type}</span>
          </label>
        );
        const hint = property.description ? (
          <span class="hint" id={`${id}-hint`}>
            {property.description}
          </span>
        ) : null;
        const described = property.description ? { 'aria-describedby': `${id}-hint` } : {};
        let input = null;
        if (type === 'boolean')
          input = (
            <input
              id={id}
              type="checkbox"
              checked={values[name] === true}
              onChange={(event) => set(event.currentTarget.checked)}
              {...described}
            />
          );
        else if (property.enum)
          input = (
            <select id={id} value={text} onChange={(event) => set(event.currentTarget.value)} {...described}>
              <option value="">(none)</option>
              {property.enum.map((option) => (
                <option key={String(option)} value={String(option)}>
                  {String(option)}
                </option>
              ))}
            </select>
          );
        else if (type === 'string' || type === 'integer' || type === 'number')
          input = (
            <input
              id={id}
              type={type === 'string' ? 'text' : 'number'}
              value={text}
              required={required.has(name)}
              onInput={(event) => set(event.currentTarget.value)}
              {...described}
            />
          );
        else
          input = (
            <textarea
              id={id}
              rows={3}
              value={text}
              placeholder={type === 'array' ? 'one per line' : 'JSON'}
              onInput={(event) => set(event.currentTarget.value)}
              {...described}
            />
          );
        return (
          <div class="field" key={name}>
            {label}
            {input}
            {hint}
          </div>
        );
      })}
    </>
  );
}
