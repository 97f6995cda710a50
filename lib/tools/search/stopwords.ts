/**
 * Words too common to tell tools apart. Kept short on purpose: direction and
 * state words such as "down", "up", "off", "out", "new" or "all" stay
 * searchable, since "the database is down" or "turn off" carry the job.
 */
export const stopwords: ReadonlySet<string> = new Set([
  "a", "about", "after", "again", "am", "an", "and", "any", "are", "as", "at",
  "be", "been", "being", "but", "by", "can", "could", "did", "do", "does", "doing",
  "for", "from", "had", "has", "have", "having", "he", "her", "here", "hers", "him", "his",
  "how", "i", "if", "in", "into", "is", "it", "its", "itself", "just", "let", "lets", "me",
  "might", "must", "my", "myself", "of", "on", "or", "our", "ours", "please", "shall", "she",
  "should", "so", "some", "than", "that", "the", "their", "theirs", "them", "then", "there",
  "these", "they", "this", "those", "to", "too", "us", "very", "was", "we", "were", "what",
  "whats", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "would",
  "you", "your", "yours", "yourself", "s", "t", "d", "ll", "re", "ve", "m", "im", "id",
  "via", "using", "use", "given", "such", "also", "etc", "eg", "ie", "e", "g",
]);
