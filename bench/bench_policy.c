/* Policy decision benchmark: placeholder until issue 3 lands. */
int main(void) { return 0; }
