// The tests of this target are generated, not written here: the library's DocSnippetsPlugin
// runs DocSnippetExtractor over the documents DocSnippets.txt names (the repository's
// README.md and Docs/GettingStarted.md), turning each ```swift macro block into a Swift Testing
// test, and each file-scope block into code of this module. Diagnostics and failing
// expectations point at the Markdown line. This file exists because a target needs at least
// one source file of its own.
