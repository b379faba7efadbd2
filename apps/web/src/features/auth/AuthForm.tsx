import { theme } from 'antd';
// The Form's style hook alone: it scopes the Form's CSS variables (label height, item margin, ...) to
// the classes it returns, as antd's Form does; the rules themselves are in antd's prebuilt sheet.
import useFormStyle from 'antd/es/form/style';
import type { FormEvent, ReactNode } from 'react';
import { useState } from 'react';

/** A field's check: the message to show, or undefined when the value is fine. */
export type FieldRule = (value: string) => string | undefined;

/**
 * A small form for the sign-in page: antd's vertical, large Form drawn with the Form's own class
 * names (so antd's prebuilt sheet styles it exactly as `<Form layout="vertical" size="large"
 * requiredMark={false}>` with `Form.Item`s), without antd's Form code (rc-form, async-validator and
 * Form.Item: about 22 KB gzip of the sign-in route's 250 KB budget).
 * Like antd's Form it checks a field when it changes and every field on submit, and shows the message
 * under the field; the browser's own checks (type="email") run first, as they did.
 */
export function useAuthForm<K extends string>(rules: Record<K, FieldRule>, onFinish: (values: Record<K, string>) => void) {
  const keys = Object.keys(rules) as K[];
  const [values, setValues] = useState(() => Object.fromEntries(keys.map((k) => [k, ''])) as Record<K, string>);
  const [errors, setErrors] = useState<Partial<Record<K, string>>>({});
  const [hashId, cssVarCls] = useFormStyle('ant-form', 'ant-form-css-var');
  const scope = `${cssVarCls} ant-form-css-var ${hashId}`.trim();

  const onSubmit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const found = Object.fromEntries(keys.map((k) => [k, rules[k](values[k])])) as Partial<Record<K, string>>;
    setErrors(found);
    if (keys.every((k) => !found[k])) onFinish(values);
  };
  const field = (name: K) => ({
    value: values[name],
    error: errors[name],
    onChange: (value: string) => {
      setValues((v) => ({ ...v, [name]: value }));
      setErrors((e) => ({ ...e, [name]: rules[name](value) }));
    },
  });
  return { scope, onSubmit, field };
}

/** The `<form>` of useAuthForm, with antd's Form classes. */
export function AuthFormBody({
  scope,
  onSubmit,
  children,
}: {
  scope: string;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  return (
    <form className={`ant-form ant-form-vertical ant-form-hide-required-mark ant-form-large ${scope}`} onSubmit={onSubmit}>
      {children}
    </form>
  );
}

/**
 * One field as antd's Form.Item renders it (label above, message below in the item's bottom margin).
 * `control` gets the input's accessibility attributes.
 */
export function AuthField({
  id,
  label,
  error,
  scope,
  control,
}: {
  id: string;
  label: string;
  error: string | undefined;
  scope: string;
  control: (aria: { id: string; 'aria-required': true; 'aria-invalid'?: true; 'aria-describedby'?: string }) => ReactNode;
}) {
  const { token } = theme.useToken();
  const item = 'ant-form-item';
  // The Form's item margin (its `itemMarginBottom` token, marginLG): the message takes its place.
  const margin = token.marginLG;
  const cssVar = scope.split(' ')[0];
  return (
    <div className={`${item} ${scope}${error ? ` ${item}-with-help ${item}-has-error` : ''} ${item}-vertical`}>
      <div className={`ant-row ${item}-row ${cssVar}`}>
        <div className={`ant-col ${item}-label ${cssVar}`}>
          <label htmlFor={id} className={`${item}-required ${item}-required-mark-hidden`} title={label}>
            {label}
          </label>
        </div>
        <div className={`ant-col ${item}-control ${cssVar}`}>
          <div className={`${item}-control-input`}>
            <div className={`${item}-control-input-content`}>
              {control(
                error
                  ? { id, 'aria-required': true, 'aria-invalid': true, 'aria-describedby': `${id}_help` }
                  : { id, 'aria-required': true },
              )}
            </div>
          </div>
          {error && (
            <div className={`${item}-additional`} style={{ minHeight: margin }}>
              <div id={`${id}_help`} className={`${item}-explain ${scope} ${item}-explain-connected`}>
                <div className={`${item}-explain-error`}>{error}</div>
              </div>
            </div>
          )}
        </div>
      </div>
      {error && <div className={`${item}-margin-offset`} style={{ marginBottom: -margin }} />}
    </div>
  );
}
