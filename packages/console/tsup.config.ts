export { default } from '@nexus/tsconfig/tsup.js';
