// The tests of this target are generated, not written here: DocSnippetsPlugin runs
// DocSnippetExtractor over Docs/*.md and README.md at build time, turning every ```swift block
// into a Swift Testing test and every ```swift file block into file-scope code of this module.
// Diagnostics and failing expectations point at the Markdown line. This file exists because a
// target needs at least one source file of its own.
