package io.tally.local.events;

/** Where matched events go on this machine: the local counterpart of a rule's targets on AWS. */
interface EventTarget {
    /**
     * Takes one event. Called in the order the events were accepted, from several threads when several PutEvents
     * calls arrive at once.
     */
    void deliver(MatchedEvent event);
}
