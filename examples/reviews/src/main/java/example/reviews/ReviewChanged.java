package example.reviews;

import com.fasterxml.jackson.annotation.JsonPropertyOrder;

/**
 * The detail of {@code ReviewChanged}, announced for every change of a review.
 *
 * @param stars         the review's stars after the change; null when it was deleted
 * @param previousStars its stars before; null when it was created
 */
@JsonPropertyOrder({"eventId", "userId", "itemId", "stars", "previousStars"})
public record ReviewChanged(String eventId, String userId, String itemId, Long stars, Long previousStars) {
}
