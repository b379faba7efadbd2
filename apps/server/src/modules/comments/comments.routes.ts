import type { AppModule } from '../index.ts';

/** Routes of the comments module (placeholder until the module lands). */
export const commentsModule: AppModule = () => {};
