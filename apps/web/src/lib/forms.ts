import type { FormInstance } from 'antd';

/**
 * The form's values when every rule passes, else undefined (antd then shows the
 * messages under the fields). Dialog submit handlers use it so a failed validation
 * is not an unhandled promise rejection.
 */
export async function validated<T>(form: FormInstance<T>): Promise<T | undefined> {
  try {
    return await form.validateFields();
  } catch {
    return undefined;
  }
}
