import dayjs from 'dayjs';

/** YYYY-MM-DD, or '-' when there is no valid date (docs/product.md "Constants"). */
export function formatDate(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  const d = dayjs(value);
  return d.isValid() ? d.format('YYYY-MM-DD') : '-';
}

/** M/D/YY h:mm A (Live Events 'Offline Since'), or '-'. */
export function formatDateTime(value: string | number | Date | null | undefined): string {
  if (value === null || value === undefined || value === '') return '-';
  const d = dayjs(value);
  return d.isValid() ? d.format('M/D/YY h:mm A') : '-';
}
