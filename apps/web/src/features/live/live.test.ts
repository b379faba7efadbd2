import { afterEach, describe, expect, it, vi } from 'vitest';
import { alertBannerText, reconnectDelay, streamUrl, throttle } from './liveEvents.ts';

describe('live events helpers', () => {
  afterEach(() => vi.useRealTimers());
  it('puts the ticket, never a token, in the stream URL', () => {
    expect(streamUrl('a b+c')).toBe('/v0/api/live-events/stream?ticket=a%20b%2Bc');
  });
  it('writes the banner of an offline alert', () => {
    expect(alertBannerText({ customerName: 'Acme', alertType: 0, offlineCount: 3 })).toBe('Acme: 3 devices offline');
    expect(alertBannerText({ customerName: 'Acme', alertType: 0, offlineCount: 1 })).toBe('Acme: 1 device offline');
    expect(alertBannerText({ customerName: 'Acme', alertType: 1, offlineCount: 4 })).toBe('Acme: License Renewal Pending (90 Days)');
  });
  it('backs off 1, 2, 4 ... seconds up to 30', () => {
    expect([1, 2, 3, 4, 5, 6, 10].map(reconnectDelay)).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  });
  it('throttles a burst into one trailing call per interval', () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const t = throttle(fn, 500);
    for (let i = 0; i < 20; i++) t.call();
    vi.advanceTimersByTime(0);
    expect(fn).toHaveBeenCalledTimes(1);
    t.call();
    t.call();
    vi.advanceTimersByTime(499);
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    expect(fn).toHaveBeenCalledTimes(2);
    t.call();
    t.cancel();
    vi.advanceTimersByTime(1000);
    expect(fn).toHaveBeenCalledTimes(2);
  });
});
