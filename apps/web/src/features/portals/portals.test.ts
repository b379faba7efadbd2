import { describe, expect, it, vi } from 'vitest';
import { MSG } from '@vigil/contracts';
import { deviceCountRule } from './components/AddLicenseDialog.tsx';
import { formatTerms } from './components/LicensesTable.tsx';
import { formatReliability } from './components/PortalsTable.tsx';
import { tableChangeWithFilters } from '../../lib/tableChange.ts';
import { paymentOutcome } from './usePaymentMarker.ts';

describe('portal formatters', () => {
  it('shows reliability with one decimal and a percent sign, "-" when not observed', () => {
    expect(formatReliability(98.25)).toBe('98.3%');
    expect(formatReliability(100)).toBe('100.0%');
    expect(formatReliability(0)).toBe('0.0%');
    expect(formatReliability(-1)).toBe('-');
  });
  it('writes license terms with a Y suffix', () => {
    expect([1, 3, 5, 10].map(formatTerms)).toEqual(['1Y', '3Y', '5Y', '10Y']);
  });
});

describe('Device Count rule (docs/decisions.md 38: validate, never clamp)', () => {
  it.each([0, -3, 1.5, null, undefined, ''])('rejects %j with the product message', async (value) => {
    await expect(deviceCountRule.validator(null, value)).rejects.toThrow(MSG.deviceCount);
  });
  it.each([1, 2, 500])('accepts %j', async (value) => {
    await expect(deviceCountRule.validator(null, value)).resolves.toBeUndefined();
  });
});

describe('payment marker', () => {
  it('reads success and failure markers', () => {
    expect(paymentOutcome(new URLSearchParams('success=true'))).toBe('success');
    expect(paymentOutcome(new URLSearchParams('success'))).toBe('success');
    expect(paymentOutcome(new URLSearchParams('success=false'))).toBe('failed');
    expect(paymentOutcome(new URLSearchParams('failed=1'))).toBe('failed');
    expect(paymentOutcome(new URLSearchParams('page=2'))).toBeNull();
  });
});

describe('table change with filters', () => {
  it('writes page, size, sort and the status filter in one update, back to page 1 when the filter changes', () => {
    const update = vi.fn();
    const onChange = tableChangeWithFilters({ pageSize: 8, filter: { q: 'cam' }, update }, ['status']);
    onChange({ current: 3, pageSize: 8 }, { status: [0] }, { order: 'descend', columnKey: 'lastOnline' });
    expect(update).toHaveBeenCalledTimes(1);
    expect(update).toHaveBeenCalledWith({ page: 1, pageSize: 8, sort: ['lastOnline', 'DESC'], filter: { q: 'cam', status: 0 } });
  });
  it('keeps the page when only paging, and removes a cleared filter', () => {
    const update = vi.fn();
    tableChangeWithFilters({ pageSize: 8, filter: { status: 1 }, update }, ['status'])({ current: 2, pageSize: 8 }, { status: [1] }, {});
    expect(update).toHaveBeenLastCalledWith({ page: 2, pageSize: 8, sort: undefined, filter: { status: 1 } });
    tableChangeWithFilters({ pageSize: 8, filter: { status: 1 }, update }, ['status'])({ current: 2, pageSize: 8 }, { status: null }, {});
    expect(update).toHaveBeenLastCalledWith({ page: 1, pageSize: 8, sort: undefined, filter: {} });
  });
});
