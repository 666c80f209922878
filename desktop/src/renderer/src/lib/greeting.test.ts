import { describe, expect, it } from 'vitest';
import { dayPart, greeting } from './greeting';

describe('dayPart', () => {
  it('switches at 12:00 and 17:00', () => {
    expect(dayPart(0)).toBe('morning');
    expect(dayPart(11)).toBe('morning');
    expect(dayPart(12)).toBe('afternoon');
    expect(dayPart(16)).toBe('afternoon');
    expect(dayPart(17)).toBe('evening');
    expect(dayPart(23)).toBe('evening');
  });
});

describe('greeting', () => {
  it('follows the time of day with the name', () => {
    expect(greeting(9, 'Asha')).toBe('Good morning, Asha');
    expect(greeting(14, 'Asha')).toBe('Good afternoon, Asha');
    expect(greeting(20, ' Asha ')).toBe('Good evening, Asha');
  });

  it('leaves the name out when there is none', () => {
    expect(greeting(9, '')).toBe('Good morning');
    expect(greeting(9, null)).toBe('Good morning');
  });
});
