/** `list-pets` → `ListPets`, `DEFAULT_4XX` → `Default4xx`: construct ids from kebab or snake names. */
export function pascal(name: string): string {
  return name
    .toLowerCase()
    .split(/[-_]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}
