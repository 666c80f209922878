import { describe, expect, it } from 'vitest';
import { templateListParams } from './templates';

describe('templateListParams', () => {
  it('asks for 20 a page and leaves out filters set to all', () => {
    expect(templateListParams({ page: 2, status: 'all', category: 'all' })).toEqual({ page: 2, limit: 20 });
    expect(templateListParams({ page: 1, status: 'DRAFT', category: 'UTILITY' })).toEqual({ page: 1, limit: 20, status: 'DRAFT', category: 'UTILITY' });
  });
});
